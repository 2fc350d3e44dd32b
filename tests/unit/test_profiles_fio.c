/*
 * test_profiles_fio: the fio job file reader (profiles/fio_job.c) and the normalised workload built from it.
 *
 *  - a table of job files (written to a temporary directory) with the resolved options bench must give each job:
 *    several [global]s applying only below them, flags, whole-line and trailing ';'/'#' comments, aliases
 *    folded to fio's names, ${VAR} from bench's variables and from the environment, $ncpus/$pagesize with
 *    arithmetic, include relative to the including file and nested;
 *  - what must be refused with file:line: include loops, unset ${VAR}, options outside a section, sections in
 *    included files, binary data, an empty file, an unterminated header;
 *  - fio's size and time suffixes (kb_base=1024 compatibility rules) and the arithmetic;
 *  - plan_build() on a job file: one run per job, jobs differing only by filename merged into one run over
 *    those targets, normalised fields agreeing with the options, --target, --quick, --repeat.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/proc.h"
#include "core/strbuf.h"
#include "profiles/fio_job.h"
#include "profiles/profile.h"
#include "testutil.h"


static char *path_of(const char *name)
{
	return xasprintf("%s/%s", tu_dir, name);
}

/* "k=v k2 k3=v3" of a job's resolved options, in order. */
static char *resolved(const struct fio_jobfile *jf, size_t idx)
{
	struct kvlist l;
	struct strbuf sb;

	kvlist_init(&l);
	strbuf_init(&sb);
	fio_jobfile_resolve(jf, idx, &l);
	for (size_t i = 0; i < l.n; i++) {
		if (i)
			strbuf_addc(&sb, ' ');
		if (l.v[i].value)
			strbuf_addf(&sb, "%s=%s", l.v[i].key, l.v[i].value);
		else
			strbuf_adds(&sb, l.v[i].key);
	}
	kvlist_release(&l);
	return strbuf_detach(&sb, NULL);
}

struct good_case {
	const char *text;
	const char *jobs[4]; /* "name: resolved options" per job section, in order */
};

static const struct good_case good[] = {
	{ "[global]\nbs=4k\n[a]\nrw=read\n[global]\niodepth=8\n[b]\nrw=write\n",
	  { "a: bs=4k rw=read", "b: bs=4k iodepth=8 rw=write" } },
	{ "; a comment\n# another\n[job]\n  readwrite = randrw ; trailing\nblocksize=8k # also\ntime_based\n\n",
	  { "job: rw=randrw bs=8k time_based" } },
	{ "[j]\nfilename=${BENCHTEST_DEV}\nsize=${BENCHTEST_SIZE}\n", { "j: filename=/dev/bench size=1g" } },
	{ "[j]\nnumjobs=$ncpus\niodepth=$ncpus*2+1\nbs=$pagesize\n", { "j: numjobs=NCPU iodepth=NCPU2 bs=PAGE" } },
	{ "[global]\ninclude inc/common.fio\n[j]\nrw=read\n", { "j: ioengine=libaio direct=1 rw=read" } },
	{ "[j]\ntimeout=60\nwait_for_previous\nnr_files=2\n", { "j: runtime=60 stonewall nrfiles=2" } },
	{ "[global1]\nbs=1k\n[x]\n", { "x: bs=1k" } },
};

static void test_good_jobfiles(void **state)
{
	char ncpu[32], ncpu2[32], page[32];
	struct kvlist vars;

	(void)state;
	snprintf(ncpu, sizeof(ncpu), "%ld", sysconf(_SC_NPROCESSORS_ONLN));
	snprintf(ncpu2, sizeof(ncpu2), "%ld", sysconf(_SC_NPROCESSORS_ONLN) * 2 + 1);
	snprintf(page, sizeof(page), "%ld", sysconf(_SC_PAGESIZE));
	kvlist_init(&vars);
	kvlist_add(&vars, "BENCHTEST_DEV", "/dev/bench"); /* from bench's NAME=value */
	setenv("BENCHTEST_SIZE", "1g", 1);                 /* from the environment */
	{
		char *d = path_of("inc");
		mkdir(d, 0755);
		free(d);
	}
	free(tu_write_in(tu_dir, "inc/common.fio", "ioengine=libaio\ninclude more.fio\n"));
	free(tu_write_in(tu_dir, "inc/more.fio", "direct=1\n"));
	for (size_t c = 0; c < sizeof(good) / sizeof(good[0]); c++) {
		struct fio_jobfile jf;
		struct errbuf err;
		size_t j = 0;
		char *p;

		free(tu_write_in(tu_dir, "case.fio", good[c].text));
		p = path_of("case.fio");
		fio_jobfile_init(&jf);
		errbuf_init(&err);
		if (fio_jobfile_parse(p, &vars, &jf, &err) < 0)
			fail_msg("case %zu: %s", c, err.msg);
		for (size_t s = 0; s < jf.n; s++) {
			char *got, *want;
			struct strbuf w;
			if (jf.v[s].is_global)
				continue;
			assert_non_null(good[c].jobs[j]);
			got = resolved(&jf, s);
			strbuf_init(&w);
			strbuf_adds(&w, good[c].jobs[j]);
			/* expand the machine's numbers */
			want = strbuf_detach(&w, NULL);
			{
				struct strbuf x;
				const char *q = want;
				strbuf_init(&x);
				while (*q) {
					if (!strncmp(q, "NCPU2", 5)) {
						strbuf_adds(&x, ncpu2);
						q += 5;
					} else if (!strncmp(q, "NCPU", 4)) {
						strbuf_adds(&x, ncpu);
						q += 4;
					} else if (!strncmp(q, "PAGE", 4)) {
						strbuf_adds(&x, page);
						q += 4;
					} else {
						strbuf_addc(&x, *q++);
					}
				}
				free(want);
				want = strbuf_detach(&x, NULL);
			}
			{
				char *full = xasprintf("%s: %s", jf.v[s].name, got);
				if (strcmp(full, want))
					fail_msg("case %zu: got '%s', want '%s'", c, full, want);
				free(full);
			}
			free(got);
			free(want);
			j++;
		}
		assert_null(c < sizeof(good) / sizeof(good[0]) && j < 4 ? good[c].jobs[j] : NULL);
		fio_jobfile_release(&jf);
		free(p);
	}
	unsetenv("BENCHTEST_SIZE");
	kvlist_release(&vars);
}

struct bad_case {
	const char *text;
	int line;          /* the line the message must name */
	const char *what;  /* a word the message must hold */
	const char *file;  /* the file it names, when not the job file itself */
};

static const struct bad_case bad[] = {
	{ "[j]\ninclude loop1.fio\n", 1, "include loop", NULL },
	{ "[j]\nfilename=${BENCHTEST_UNSET_VAR}\n", 2, "BENCHTEST_UNSET_VAR", NULL },
	{ "bs=4k\n[j]\n", 1, "outside", NULL },
	{ "[j]\ninclude withsection.fio\n", 1, "no new sections", "withsection.fio" },
	{ "", 1, "no job sections", NULL },
	{ "[global]\nbs=4k\n", 1, "no job sections", NULL },
	{ "[j\nbs=4k\n", 1, "[name]", NULL },
	{ "[j]\n\nbs 4k\n", 3, "not a fio option", NULL },
	{ "[j]\ninclude missing.fio\n", 2, "cannot read", NULL },
	{ "[j]\niodepth=$ncpus/0\n", 2, "arithmetic", NULL },
};

static void test_bad_jobfiles(void **state)
{
	(void)state;
	free(tu_write_in(tu_dir, "loop1.fio", "include loop2.fio\n"));
	free(tu_write_in(tu_dir, "loop2.fio", "include loop1.fio\n"));
	free(tu_write_in(tu_dir, "withsection.fio", "[inner]\nbs=4k\n"));
	unsetenv("BENCHTEST_UNSET_VAR");
	for (size_t c = 0; c < sizeof(bad) / sizeof(bad[0]); c++) {
		struct fio_jobfile jf;
		struct errbuf err;
		char *p, *where;
		int rc;

		free(tu_write_in(tu_dir, "bad.fio", bad[c].text));
		p = path_of("bad.fio");
		fio_jobfile_init(&jf);
		errbuf_init(&err);
		rc = fio_jobfile_parse(p, NULL, &jf, &err);
		if (rc == 0)
			fail_msg("case %zu was accepted", c);
		assert_int_equal(err.kind, ERR_INPUT);
		if (!strstr(err.msg, bad[c].what))
			fail_msg("case %zu: '%s' lacks '%s'", c, err.msg, bad[c].what);
		assert_null(strchr(err.msg, '\n'));
		/* file:line: the loop case names the include line inside the included file */
		if (bad[c].file) {
			char *fp = path_of(bad[c].file);
			where = xasprintf("%s:%d:", fp, bad[c].line);
			free(fp);
		} else {
			where = c == 0 ? NULL : xasprintf("%s:%d:", p, bad[c].line);
		}
		if (where && !strstr(err.msg, where))
			fail_msg("case %zu: '%s' does not name %s", c, err.msg, where);
		if (!where && !strstr(err.msg, "loop"))
			fail_msg("case %zu: %s", c, err.msg);
		free(where);
		fio_jobfile_release(&jf);
		free(p);
	}
	{
		/* binary garbage */
		struct fio_jobfile jf;
		struct errbuf err;
		char *p = path_of("bin.fio");
		FILE *f = fopen(p, "wb");
		fwrite("[j]\n\0\1\2\3", 1, 8, f);
		fclose(f);
		fio_jobfile_init(&jf);
		errbuf_init(&err);
		assert_int_equal(fio_jobfile_parse(p, NULL, &jf, &err), -1);
		assert_non_null(strstr(err.msg, "binary"));
		fio_jobfile_release(&jf);
		free(p);
	}
}

static void test_units(void **state)
{
	static const struct {
		const char *s;
		uint64_t v;
	} sizes[] = {
		{ "4k", 4096 }, { "4K", 4096 }, { "4kb", 4096 }, { "4KB", 4096 }, { "4KiB", 4000 }, { "1m", 1048576 },
		{ "1MiB", 1000000 }, { "2g", 2147483648ULL }, { "512", 512 }, { "0x10", 16 }, { "1t", 1ULL << 40 },
	};
	static const char *const bad_sizes[] = { "", "k", "4q", "4kbb", "-1", "4 k" };
	static const struct {
		const char *s;
		uint64_t us;
	} times[] = {
		{ "60", 60000000 }, { "90s", 90000000 }, { "2m", 120000000 }, { "1h", 3600000000ULL },
		{ "500ms", 500000 }, { "10us", 10 }, { "1d", 86400000000ULL },
	};
	static const struct {
		const char *s;
		long long v;
	} ar[] = { { "2*3+1", 7 }, { "(2+3)*4", 20 }, { "7/2", 3 }, { "10-2-3", 5 }, { "-4+10", 6 } };

	(void)state;
	for (size_t i = 0; i < sizeof(sizes) / sizeof(sizes[0]); i++) {
		uint64_t v;
		if (fio_parse_size(sizes[i].s, &v) < 0 || v != sizes[i].v)
			fail_msg("size '%s'", sizes[i].s);
	}
	for (size_t i = 0; i < sizeof(bad_sizes) / sizeof(bad_sizes[0]); i++) {
		uint64_t v;
		if (fio_parse_size(bad_sizes[i], &v) == 0)
			fail_msg("size '%s' accepted", bad_sizes[i]);
	}
	for (size_t i = 0; i < sizeof(times) / sizeof(times[0]); i++) {
		uint64_t v;
		if (fio_parse_time_us(times[i].s, 1000000, &v) < 0 || v != times[i].us)
			fail_msg("time '%s'", times[i].s);
	}
	for (size_t i = 0; i < sizeof(ar) / sizeof(ar[0]); i++) {
		long long v;
		if (fio_eval_arith(ar[i].s, &v) < 0 || v != ar[i].v)
			fail_msg("arith '%s'", ar[i].s);
	}
	{
		long long v;
		assert_int_equal(fio_eval_arith("1/0", &v), -1);
		assert_int_equal(fio_eval_arith("(1+2", &v), -1);
		assert_int_equal(fio_eval_arith("2x", &v), -1);
	}
}

static void test_plan_jobfile(void **state)
{
	struct plan_options o;
	struct plan p;
	struct errbuf err;
	char *path;
	const char *args[1];

	(void)state;
	free(tu_write_in(tu_dir, "plan.fio", "[global]\nioengine=libaio\nbs=64k\nrw=randrw\nrwmixread=70\niodepth=16\nruntime=2m\n"
			       "ramp_time=5\nsize=1g\n[d1]\nfilename=/dev/sdb\n[d2]\nfilename=/dev/sdc\n"
			       "[seq]\nstonewall\nrw=read\nfilename=/dev/sdb\n[indir]\nrw=write\ndirectory=/mnt/t\n"));
	path = path_of("plan.fio");
	args[0] = path;
	plan_options_init(&o);
	plan_init(&p);
	errbuf_init(&err);
	o.workdir = tu_dir;
	o.each_job = 1; /* one run per section (or per sections differing only by filename); together: test_jobs_plan.c */
	if (plan_build(args, 1, &o, &p, &err) < 0)
		fail_msg("%s", err.msg);
	assert_int_equal(p.n, 3);
	assert_string_equal(p.runs[2].targets[0], "/mnt/t/bench-target.dat");
	/* d1 and d2 differ only by filename: one run over both devices */
	assert_string_equal(p.runs[0].name, "d1");
	assert_int_equal(p.runs[0].ntargets, 2);
	assert_string_equal(p.runs[0].targets[0], "/dev/sdb");
	assert_string_equal(p.runs[0].targets[1], "/dev/sdc");
	assert_null(kvlist_find(&p.runs[0].wl.opts, "filename"));
	assert_int_equal(p.runs[0].wl.bs_bytes, 65536);
	assert_int_equal(p.runs[0].wl.read_pct, 70);
	assert_int_equal(p.runs[0].wl.random_pct, 100);
	assert_int_equal(p.runs[0].wl.iodepth, 16);
	assert_int_equal(p.runs[0].wl.runtime_s, 120);
	assert_int_equal(p.runs[0].wl.ramp_s, 5);
	assert_string_equal(p.runs[0].wl.size, "1g");
	assert_string_equal(p.runs[0].engine, "fio");
	assert_string_equal(p.runs[1].name, "seq");
	assert_int_equal(p.runs[1].wl.read_pct, 100);
	assert_int_equal(p.runs[1].wl.random_pct, 0);
	assert_int_equal(p.runs[1].seq, 2);
	plan_release(&p);

	/* --quick --target --repeat --engine: options and normalised fields agree */
	plan_init(&p);
	o.quick = 1;
	o.repeat = 2;
	o.engine = "null";
	o.targets = xcalloc(1, sizeof(char *));
	o.targets[0] = xstrdup("/tmp/x.dat");
	o.ntargets = 1;
	if (plan_build(args, 1, &o, &p, &err) < 0)
		fail_msg("%s", err.msg);
	assert_int_equal(p.n, 6);
	for (size_t i = 0; i < p.n; i++) {
		const struct run_spec *s = &p.runs[i];
		assert_int_equal(s->seq, i + 1);
		assert_int_equal(s->repetition, i / 3 + 1);
		assert_int_equal(s->ntargets, 1);
		assert_string_equal(s->targets[0], "/tmp/x.dat");
		assert_string_equal(s->engine, "null");
		assert_int_equal(s->wl.runtime_s, 10);
		assert_int_equal(s->wl.ramp_s, 2);
		assert_string_equal(s->wl.size, "256m");
		assert_string_equal(kvlist_get(&s->wl.opts, "runtime", ""), "10");
		assert_string_equal(kvlist_get(&s->wl.opts, "ramp_time", ""), "2");
		assert_string_equal(kvlist_get(&s->wl.opts, "size", ""), "256m");
	}
	plan_release(&p);
	plan_options_release(&o);
	free(path);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_good_jobfiles),
		cmocka_unit_test(test_bad_jobfiles),
		cmocka_unit_test(test_units),
		cmocka_unit_test(test_plan_jobfile),
	};
	return cmocka_run_group_tests(tests, tu_dir_setup, tu_dir_teardown);
}
