/*
 * test_target_fio: the paths bench checks are the paths fio opens. For each job shape of a table (filename=
 * lists with ':' and "\:", directory= lists, filename_format= with every keyword, nrfiles, numjobs,
 * unique_filename, engine options over the workload's, targets, a host's target list), the job file is written
 * with fio_jobfile_write into a scratch directory, real `fio --create_only=1` runs there, and the regular files
 * fio created must be exactly target_opened_paths_with's list. Skipped (cmocka skip) without fio.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <fcntl.h>
#include <ftw.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cmocka.h>

#include "core/strbuf.h"
#include "engines/fio_jobfile.h"
#include "engines/target.h"
#include "testutil.h"

struct shape {
	const char *job_opts;    /* k=v;k=v (the workload's: job file and suite options) */
	const char *engine_opts; /* k=v;k=v (--engine-opt) */
	const char *targets;     /* t;t, "@" is the scratch directory */
	const char *want;        /* what fio creates, sorted, '|' between, relative to the scratch directory */
};

static const struct shape shapes[] = {
	{ "", "", "", "job.0.0" },
	{ "nrfiles=3", "", "", "job.0.0|job.0.1|job.0.2" },
	{ "numjobs=2;nrfiles=2", "", "", "job.0.0|job.0.1|job.1.0|job.1.1" },
	{ "filename_format=f.$jobnum.$filenum;numjobs=2;nrfiles=2", "", "", "f.0.0|f.0.1|f.1.0|f.1.1" },
	{ "filename_format=$jobname-$clientuid-x", "", "", "job--x" },
	{ "filename_format=$JOBNAME.$FileNum", "", "", "job.0" },
	{ "directory=a:b;numjobs=3", "", "", "a/job.0.0|a/job.2.0|b/job.1.0" },
	{ "directory=a;filename_format=z$filenum;nrfiles=2", "", "", "a/z0|a/z1" },
	{ "unique_filename=0;directory=b;nrfiles=2", "", "", "b/job.0.0|b/job.0.1" },
	{ "filename=x:y", "", "", "x|y" },
	{ "filename=c\\:d", "", "", "c:d" },
	{ "directory=a;filename=x:y", "", "", "a/x|a/y" },
	{ "directory=a:b;filename=x", "", "", "a/x" },
	{ "filename=x", "filename=y", "", "x|y" },
	{ "", "", "t1", "t1" },
	{ "", "", "t1;t2", "t1|t2" },
	{ "", "filename=e1", "t1", "e1|t1" },
	{ "", "filename=e1:e2", "t1;t2", "e1|e2|t1|t2" },
	{ "", "directory=a;filename=e1", "@/t1", "a/e1|t1" },
	{ "", "filename=@/z\\:z:e3", "t1", "e3|t1|z:z" },
	{ "directory=a", "", "t1", "a/t1" },
	{ "directory=a", "", "a/t1", "a/t1" },
	{ "numjobs=2", "", "t1", "t1" },
	{ "numjobs=2;filename_format=n$jobnum", "directory=a:b", "", "a/n0|b/n1" },
	{ "filename_format=n$filenum", "nrfiles=2", "", "n0|n1" },
	{ "nrfiles=2;filename_format=m$filenum", "filename_format=k$filenum", "", "k0|k1" },
};

static char *subst(const char *text, const char *dir)
{
	struct strbuf sb;

	strbuf_init(&sb);
	for (const char *p = text; *p; p++)
		if (*p == '@')
			strbuf_adds(&sb, dir);
		else
			strbuf_addc(&sb, *p);
	return strbuf_detach(&sb, NULL);
}

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

static struct kvlist *found; /* nftw has no user pointer */
static size_t found_skip;

static int collect(const char *path, const struct stat *sb, int type, struct FTW *ftw)
{
	(void)sb;
	(void)ftw;
	if (type == FTW_F)
		kvlist_add(found, path + found_skip, "");
	return 0;
}

static int cmp_kv(const void *a, const void *b)
{
	return strcmp(((const struct kv *)a)->key, ((const struct kv *)b)->key);
}

/* "a|b|c", sorted: relative paths as they are, absolute ones under `dir` made relative, "//" as "/". */
static char *joined(struct kvlist *l, const char *dir)
{
	struct strbuf sb;
	size_t dl = strlen(dir);

	for (size_t i = 0; i < l->n; i++) {
		char *k = l->v[i].key, *w = k;
		for (char *r = k; *r; r++)
			if (!(r[0] == '/' && r[1] == '/'))
				*w++ = *r;
		*w = '\0';
		if (!strncmp(k, dir, dl) && k[dl] == '/')
			memmove(k, k + dl + 1, strlen(k + dl + 1) + 1);
	}
	qsort(l->v, l->n, sizeof(l->v[0]), cmp_kv);
	strbuf_init(&sb);
	for (size_t i = 0; i < l->n; i++)
		strbuf_addf(&sb, "%s%s", i ? "|" : "", l->v[i].key);
	return strbuf_detach(&sb, NULL);
}

/* Runs `fio --create_only=1 JOB` in `work`; its exit status. */
static int run_fio(const char *work, const char *job)
{
	pid_t pid = fork();
	int st = 0;

	if (pid == 0) {
		int fd = open("/dev/null", O_WRONLY);
		if (chdir(work) < 0)
			_exit(126);
		dup2(fd, 1);
		dup2(fd, 2);
		execlp("fio", "fio", "--create_only=1", "--output=/dev/null", job, (char *)NULL);
		_exit(127);
	}
	waitpid(pid, &st, 0);
	return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

static int have_fio(void)
{
	return system("fio --version >/dev/null 2>&1") == 0;
}

/* One shape: write, run fio, compare what it created with the planned list. */
static void check_shape(const struct shape *c, size_t idx, int host)
{
	char top[] = "/tmp/test-target-fio-XXXXXX";
	struct run_spec s;
	struct kvlist planned, made;
	struct strbuf job;
	struct errbuf err;
	char *work, *jobpath, *t, *save = NULL, *want, *got_fio, *got_plan, *fill_job, *fill_eng;
	char **tv = NULL;
	size_t tn = 0;

	assert_non_null(mkdtemp(top));
	work = xasprintf("%s/w", top);
	assert_int_equal(mkdir(work, 0755), 0);
	for (const char *d = "ab"; *d; d++) {
		char *sub = xasprintf("%s/%c", work, *d);
		assert_int_equal(mkdir(sub, 0755), 0);
		free(sub);
	}
	run_spec_init(&s);
	s.name = xstrdup("job");
	kvlist_add(&s.wl.opts, "ioengine", "psync");
	kvlist_add(&s.wl.opts, "rw", "write");
	kvlist_add(&s.wl.opts, "size", "64k");
	fill_job = subst(c->job_opts, work);
	fill_eng = subst(c->engine_opts, work);
	fill(fill_job, &s.wl.opts);
	fill(fill_eng, &s.engine_opts);
	t = subst(c->targets, work);
	for (char *p = strtok_r(t, ";", &save); p; p = strtok_r(NULL, ";", &save)) {
		tv = xrealloc(tv, (tn + 1) * sizeof(*tv));
		tv[tn++] = xstrdup(p);
		if (!host)
			run_spec_add_target(&s, p);
	}
	if (host) /* a host's target= list: the run's own target is not used */
		run_spec_add_target(&s, "/nonexistent/run-target");
	kvlist_init(&planned);
	kvlist_init(&made);
	strbuf_init(&job);
	errbuf_init(&err);
	assert_int_equal(target_opened_paths_with(&s, tv, tn, 0, &planned, &err), 0);
	assert_int_equal(fio_jobfile_write(&s, tv, tn, NULL, &job, &err), 0);
	jobpath = tu_write_in(top, "job.fio", job.buf);
	if (run_fio(work, jobpath) != 0)
		fail_msg("shape %zu: fio failed on:\n%s", idx, job.buf);
	found = &made;
	found_skip = strlen(work) + 1;
	assert_int_equal(nftw(work, collect, 8, FTW_PHYS), 0);
	got_fio = joined(&made, work);
	got_plan = joined(&planned, work);
	want = xstrdup(c->want);
	if (strcmp(got_fio, got_plan) || strcmp(got_plan, want))
		fail_msg("shape %zu%s: fio created '%s', bench planned '%s', want '%s'; job file:\n%s", idx,
			 host ? " (host targets)" : "", got_fio, got_plan, want, job.buf);
	free(want);
	free(got_fio);
	free(got_plan);
	free(jobpath);
	strbuf_release(&job);
	kvlist_release(&planned);
	kvlist_release(&made);
	for (size_t i = 0; i < tn; i++)
		free(tv[i]);
	free(tv);
	free(t);
	free(fill_job);
	free(fill_eng);
	run_spec_release(&s);
	tu_rm_rf(top);
	free(work);
}

static void test_shapes(void **state)
{
	(void)state;
	if (!have_fio())
		skip();
	for (size_t i = 0; i < sizeof(shapes) / sizeof(shapes[0]); i++)
		check_shape(&shapes[i], i, 0);
}

/* The same shapes with targets given as a host's target= list (target_opened_paths_with). */
static void test_host_targets(void **state)
{
	(void)state;
	if (!have_fio())
		skip();
	for (size_t i = 0; i < sizeof(shapes) / sizeof(shapes[0]); i++)
		if (*shapes[i].targets)
			check_shape(&shapes[i], i, 1);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_shapes),
		cmocka_unit_test(test_host_targets),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
