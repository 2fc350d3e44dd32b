/*
 * test_target: the paths fio will open for a run spec (target_opened_paths) on a table of job and engine
 * options, and target_check on regular files: one bench did not create is refused unless
 * TARGET_OVERWRITE_FILES, one it created (TARGET_XATTR) is accepted, directories and dangling links refused.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cmocka.h>

#include "core/strbuf.h"
#include "engines/target.h"

struct path_case {
	const char *job_opts;    /* k=v;k=v */
	const char *engine_opts; /* k=v;k=v */
	const char *targets;     /* t;t */
	const char *want;        /* p|p|p in order */
};

static const struct path_case cases[] = {
	{ "", "", "/dev/loop7", "/dev/loop7" },
	{ "", "directory=/dev", "loop7", "/dev/loop7" },
	{ "", "directory=/dev", "/tmp/x", "/tmp/x" },                   /* absolute: directory= does not apply */
	{ "directory=/dev", "", "loop7", "/dev/loop7" },                /* the job's own applies to targets too */
	{ "", "directory=/a:/b", "t", "/a/t" },                        /* filename= entries: the first directory */
	{ "filename=/dev/sdb:/dev/sdc", "", "", "/dev/sdb|/dev/sdc" },
	{ "filename=a\\:b", "", "", "a:b" },
	{ "filename=sdb;directory=/dev", "", "", "/dev/sdb" },
	{ "filename=x", "filename=/dev/sdz", "", "x|/dev/sdz" },       /* every filename= adds files (fio) */
	{ "", "filename=/dev/sdz", "/srv/t", "/dev/sdz|/srv/t" },      /* --engine-opt filename= with a target */
	{ "", "directory=/dev;filename=sdz", "/srv/t", "/dev/sdz|/srv/t" },
	{ "", "filename=/tmp/zz:/dev/sdz", "/srv/t", "/tmp/zz|/dev/sdz|/srv/t" },
	{ "numjobs=2;directory=/a:/b", "", "", "/a/job.0.0|/b/job.1.0" },  /* round-robin by job number */
	{ "numjobs=2;nrfiles=2", "", "", "job.0.0|job.0.1|job.1.0|job.1.1" },
	{ "filename_format=/dev/loop$jobnum;numjobs=2", "", "", "/dev/loop0|/dev/loop1" },
	{ "filename_format=f.$filenum;directory=/srv", "", "", "/srv/f.0" },
	{ "ioengine=null;filename=/dev/sda", "", "", "" },
};

static void fill(const char *text, struct kvlist *kv)
{
	char *s = xstrdup(text), *save = NULL;

	for (char *t = strtok_r(s, ";", &save); t; t = strtok_r(NULL, ";", &save)) {
		char *eq = strchr(t, '=');
		*eq = '\0';
		kvlist_add(kv, t, eq + 1);
	}
	free(s);
}

static void test_opened_paths(void **state)
{
	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct run_spec s;
		struct kvlist out;
		struct strbuf got;
		struct errbuf err;
		char *t = xstrdup(cases[i].targets), *save = NULL;

		run_spec_init(&s);
		s.name = xstrdup("job");
		fill(cases[i].job_opts, &s.wl.opts);
		fill(cases[i].engine_opts, &s.engine_opts);
		for (char *p = strtok_r(t, ";", &save); p; p = strtok_r(NULL, ";", &save))
			run_spec_add_target(&s, p);
		free(t);
		kvlist_init(&out);
		strbuf_init(&got);
		errbuf_init(&err);
		assert_int_equal(target_opened_paths(&s, 0, &out, &err), 0);
		for (size_t k = 0; k < out.n; k++)
			strbuf_addf(&got, "%s%s", k ? "|" : "", out.v[k].key);
		if (strcmp(got.len ? got.buf : "", cases[i].want))
			fail_msg("case %zu: got '%s', want '%s'", i, got.len ? got.buf : "", cases[i].want);
		strbuf_release(&got);
		kvlist_release(&out);
		run_spec_release(&s);
	}
}

static void test_opendir_refused(void **state)
{
	struct run_spec s;
	struct kvlist out;
	struct errbuf err;

	(void)state;
	run_spec_init(&s);
	s.name = xstrdup("j");
	kvlist_add(&s.engine_opts, "opendir", "/srv");
	kvlist_init(&out);
	errbuf_init(&err);
	assert_int_equal(target_opened_paths(&s, 0, &out, &err), -1);
	assert_int_equal(err.kind, ERR_INPUT);
	assert_non_null(strstr(err.msg, "opendir"));
	assert_int_equal(target_opened_paths(&s, TARGET_DESTRUCTIVE, &out, &err), -1); /* never run */
	kvlist_release(&out);
	run_spec_release(&s);
}

static void test_regular_files(void **state)
{
	char dir[] = "/tmp/test-target-XXXXXX", *precious, *mine, *link, *empty;
	struct errbuf err;
	FILE *f;

	(void)state;
	assert_non_null(mkdtemp(dir));
	precious = xasprintf("%s/precious.txt", dir);
	mine = xasprintf("%s/mine.dat", dir);
	link = xasprintf("%s/dangling", dir);
	empty = xasprintf("%s/empty", dir);
	f = fopen(precious, "w");
	fputs("only copy\n", f);
	fclose(f);
	fclose(fopen(empty, "w"));
	assert_int_equal(symlink("/nonexistent/x", link), 0);
	errbuf_init(&err);
	assert_int_equal(target_check(precious, 0, &err), -1);
	assert_non_null(strstr(err.msg, "--overwrite-files"));
	assert_int_equal(target_check(precious, TARGET_OVERWRITE_FILES, &err), 0);
	assert_int_equal(target_check(precious, TARGET_DESTRUCTIVE, &err), 0);
	assert_int_equal(target_check(empty, 0, &err), 0);
	assert_int_equal(target_check(dir, TARGET_DESTRUCTIVE, &err), -1);
	assert_int_equal(target_check(link, 0, &err), -1);
	assert_non_null(strstr(err.msg, "dangling"));
	/* a file bench creates is marked and accepted afterwards */
	assert_int_equal(target_check(mine, 0, &err), 0);
	assert_int_equal(target_prepare(mine, 65536, 0, &err), 0);
	assert_int_equal(target_check(mine, 0, &err), 0);
	unlink(precious);
	unlink(mine);
	unlink(link);
	unlink(empty);
	rmdir(dir);
	free(precious);
	free(mine);
	free(link);
	free(empty);
}

/* target_purge: a file bench did not make is refused unless allowed; allowed, it is truncated; none: logged. */
static void test_purge_file(void **state)
{
	char dir[] = "/tmp/test_target_purge.XXXXXX", *path, *none;
	struct strbuf log;
	struct errbuf err;
	struct stat st;
	FILE *f;

	(void)state;
	assert_non_null(mkdtemp(dir));
	path = xasprintf("%s/user.dat", dir);
	none = xasprintf("%s/none.dat", dir);
	f = fopen(path, "w");
	assert_non_null(f);
	fputs("the user's data", f);
	fclose(f);
	strbuf_init(&log);
	errbuf_init(&err);
	assert_int_equal(target_purge(path, 0, 0, &log, &err), -1);
	assert_non_null(strstr(err.msg, "is not a file bench created"));
	assert_int_equal(stat(path, &st), 0);
	assert_int_equal(st.st_size, 15); /* untouched */
	assert_int_equal(target_purge(path, 0, 15, &log, &err), 0); /* small enough (a sim state file) */
	assert_int_equal(stat(path, &st), 0);
	assert_int_equal(st.st_size, 0);
	assert_int_equal(target_purge(path, 0, 0, &log, &err), -1); /* empty, still not bench's */
	assert_int_equal(target_purge(path, TARGET_OVERWRITE_FILES, 0, &log, &err), 0);
	assert_int_equal(target_purge(none, 0, 0, &log, &err), 0);
	assert_non_null(strstr(log.buf, "recreated empty"));
	assert_non_null(strstr(log.buf, "none.dat: does not exist yet"));
	strbuf_release(&log);
	unlink(path);
	rmdir(dir);
	free(path);
	free(none);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_opened_paths),
		cmocka_unit_test(test_opendir_refused),
		cmocka_unit_test(test_regular_files),
		cmocka_unit_test(test_purge_file),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
