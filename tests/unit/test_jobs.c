/*
 * test_jobs: a fio job file runs as fio runs it (docs/profiles.md "A job file runs as fio runs it"): the jobs
 * between stonewalls are one run of several jobs (new_group does not split, sections differing only by
 * filename stay one job over those targets, duplicate names get their position), --each-job keeps one run
 * per section; the summary workload, --target and --quick on every job; the identity covers every job in
 * order; the spec survives JSON; jobs aggregate like hosts; the store keeps each job's rows beside the
 * headline rows (job '*').
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
#include <unistd.h>

#include "core/aggregate.h"
#include "core/identity.h"
#include "core/spec_json.h"
#include "core/store.h"
#include "core/store_read.h"
#include "core/strbuf.h"
#include "profiles/fio_workload.h"
#include "profiles/profile.h"
#include "testutil.h"

static const char JOBFILE[] = "[global]\nioengine=psync\nbs=4k\nsize=16m\nruntime=5\n"
			      "[d1]\nrw=randread\nfilename=/tmp/x1\n"
			      "[d2]\nrw=randread\nfilename=/tmp/x2\n"
			      "[w]\nnew_group\nrw=randwrite\nbs=64k\nnumjobs=2\nfilename=/tmp/y\n"
			      "[seq]\nstonewall\nrw=read\nfilename=/tmp/z\n"
			      "[a]\nstonewall\nrw=read\nfilename=/tmp/a\n"
			      "[a]\nrw=write\n";

static void build(struct plan *p, int each_job, int quick, const char *target)
{
	struct plan_options o;
	struct errbuf err;
	char *path = xasprintf("%s/jobs.fio", tu_dir);
	const char *args[1] = { path };
	char *tg[1] = { (char *)target };
	FILE *f = fopen(path, "w");

	assert_non_null(f);
	fputs(JOBFILE, f);
	fclose(f);
	plan_options_init(&o);
	plan_init(p);
	errbuf_init(&err);
	o.workdir = tu_dir;
	o.each_job = each_job;
	o.quick = quick;
	if (target) {
		o.targets = tg;
		o.ntargets = 1;
	}
	if (plan_build(args, 1, &o, p, &err) < 0)
		fail_msg("%s", err.msg);
	o.targets = NULL;
	o.ntargets = 0;
	plan_options_release(&o);
	free(path);
}

static void test_plan_together(void **state)
{
	struct plan p;
	const struct run_spec *r;

	(void)state;
	build(&p, 0, 0, NULL);
	assert_int_equal(p.n, 3);
	/* d1+d2 (one job over both files) beside w (new_group only reports apart) */
	r = &p.runs[0];
	assert_string_equal(r->name, "d1+w");
	assert_int_equal(r->njobs, 2);
	assert_string_equal(r->jobs[0].name, "d1");
	assert_int_equal(r->jobs[0].ntargets, 2);
	assert_string_equal(r->jobs[0].targets[1], "/tmp/x2");
	assert_string_equal(r->jobs[1].name, "w");
	assert_int_equal(r->jobs[1].wl.bs_bytes, 65536);
	assert_int_equal(r->jobs[1].wl.numjobs, 2);
	/* the summary: what the jobs share, the rest marked */
	assert_string_equal(r->wl.rw, "mixed");
	assert_int_equal(r->wl.bs_bytes, 0);
	assert_int_equal(r->wl.numjobs, 3);
	assert_int_equal(r->wl.read_pct, 33); /* 100 x 1 job + 0 x 2 jobs */
	assert_int_equal(r->wl.random_pct, 100);
	assert_int_equal(r->wl.runtime_s, 5);
	assert_string_equal(kvlist_get(&r->wl.opts, "ioengine", "?"), "psync"); /* the jobs' common options only */
	assert_null(kvlist_find(&r->wl.opts, "rw"));
	assert_null(kvlist_find(&r->wl.opts, "bs"));
	assert_int_equal(r->ntargets, 3);
	assert_string_equal(r->targets[2], "/tmp/y");
	/* a stretch of one job is a run of one job, as before */
	assert_string_equal(p.runs[1].name, "seq");
	assert_int_equal(p.runs[1].njobs, 0);
	assert_string_equal(p.runs[1].targets[0], "/tmp/z");
	/* two sections of one name: the second gets its position; a job without filename gets the default */
	r = &p.runs[2];
	assert_int_equal(r->njobs, 2);
	assert_string_equal(r->jobs[0].name, "a");
	assert_string_equal(r->jobs[1].name, "a.2");
	assert_int_equal(r->jobs[1].ntargets, 1);
	assert_non_null(strstr(r->jobs[1].targets[0], "bench-target.dat"));
	plan_release(&p);

	build(&p, 1, 0, NULL);
	assert_int_equal(p.n, 5);
	assert_string_equal(p.runs[0].name, "d1");
	assert_int_equal(p.runs[0].ntargets, 2);
	for (size_t i = 0; i < p.n; i++)
		assert_int_equal(p.runs[i].njobs, 0);
	plan_release(&p);
}

static void test_plan_target_quick(void **state)
{
	struct plan p;

	(void)state;
	build(&p, 0, 1, "/tmp/only.dat");
	for (size_t i = 0; i < p.runs[0].njobs; i++) {
		const struct job_spec *j = &p.runs[0].jobs[i];
		assert_int_equal(j->ntargets, 1);
		assert_string_equal(j->targets[0], "/tmp/only.dat");
		assert_int_equal(j->wl.runtime_s, 10); /* --quick on every job */
		assert_int_equal(j->wl.ramp_s, 2);
	}
	assert_int_equal(p.runs[0].ntargets, 1);
	assert_int_equal(p.runs[0].wl.runtime_s, 10);
	plan_release(&p);
}

static void test_identity_and_json(void **state)
{
	struct plan p;
	struct run_spec copy, back;
	struct errbuf err;
	char *a, *b, *text;
	struct kvlist kv;

	(void)state;
	errbuf_init(&err);
	build(&p, 0, 0, NULL);
	a = run_spec_identity(&p.runs[0]);
	assert_non_null(strstr(a, "jobs=2|job1."));
	assert_non_null(strstr(a, "job2.bs=65536"));
	/* a run of one job: its workload's identity */
	b = run_spec_identity(&p.runs[1]);
	text = workload_identity(&p.runs[1].wl);
	assert_string_equal(b, text);
	free(b);
	free(text);
	/* the second job's block size changes the run's identity, and the item names the job */
	run_spec_copy(&copy, &p.runs[0]);
	assert_int_equal(workload_set_fio_opt(&copy.jobs[1].wl, "bs", "128k", &err), 0);
	b = run_spec_identity(&copy);
	assert_string_not_equal(a, b);
	free(b);
	kvlist_init(&kv);
	run_spec_identity_kv(&copy, &kv);
	assert_string_equal(kvlist_get(&kv, "job2.bs", "?"), "131072");
	kvlist_release(&kv);
	run_spec_release(&copy);
	/* JSON and back: the same jobs, targets and identity */
	text = run_spec_to_json(&p.runs[0]);
	assert_int_equal(run_spec_from_json(text, &back, &err), 0);
	assert_int_equal(back.njobs, 2);
	assert_string_equal(back.jobs[1].name, "w");
	assert_int_equal(back.jobs[0].ntargets, 2);
	b = run_spec_identity(&back);
	assert_string_equal(a, b);
	free(b);
	free(text);
	run_spec_release(&back);
	free(a);
	plan_release(&p);
}

/* A direction with `ios` IOs in one bin of `value_ns`. */
static void fill(struct host_result *h, const char *job, enum ddir d, uint64_t ios, uint64_t value_ns, double start)
{
	h->job = xstrdup(job);
	h->job_start_ms = start;
	h->dir[d].present = 1;
	h->dir[d].ios = ios;
	h->dir[d].bytes = ios * 4096;
	h->dir[d].runtime_ms = 1000;
	h->dir[d].iops = (double)ios;
	h->dir[d].bw_bytes = (double)ios * 4096;
	h->dir[d].bins = xcalloc(1, sizeof(struct hist_bin));
	h->dir[d].bins[0] = (struct hist_bin){ value_ns, ios };
	h->dir[d].nbins = 1;
	snprintf(h->dir[d].pct_kind, sizeof(h->dir[d].pct_kind), "clat");
	host_result_total(h);
}

static void test_aggregate_and_store(void **state)
{
	struct run_result r;
	struct plan p;
	struct store *st;
	struct errbuf err;
	struct store_result *v;
	size_t n;
	int64_t suite, run;
	double p50;
	char *db = xasprintf("%s/jobs.db", tu_dir);

	(void)state;
	errbuf_init(&err);
	run_result_init(&r);
	fill(run_result_add_host(&r, "h1"), "reader", DDIR_READ, 100, 1000, 5000);
	fill(run_result_add_host(&r, "h1"), "writer", DDIR_WRITE, 300, 9000, 5001);
	fill(run_result_add_host(&r, "h2"), "reader", DDIR_READ, 200, 3000, 4999);
	fill(run_result_add_host(&r, "h2"), "writer", DDIR_WRITE, 100, 9000, 5002);
	run_result_aggregate(&r);
	run_result_aggregate(&r); /* again: the same aggregates, not twice */
	assert_int_equal(r.nhosts, 4 + 2 + 1 + 2);
	assert_int_equal(run_result_find_host(&r, "h1")->dir[DDIR_TOTAL].ios, 400);
	assert_int_equal(run_result_find_host(&r, HOST_AGGREGATE)->dir[DDIR_TOTAL].ios, 700);
	assert_int_equal(run_result_find_job(&r, HOST_AGGREGATE, "reader")->dir[DDIR_READ].ios, 300);
	assert_null(run_result_find_job(&r, HOST_AGGREGATE, "reader")->dir[DDIR_WRITE].present ? (void *)1 : NULL);
	/* percentiles of a job over hosts from summed bins: 100 at 1000 ns + 200 at 3000 ns -> p50 = 3000 */
	assert_int_equal(hist_percentile(run_result_find_job(&r, HOST_AGGREGATE, "reader")->dir[DDIR_READ].bins,
					 run_result_find_job(&r, HOST_AGGREGATE, "reader")->dir[DDIR_READ].nbins, 50), 3000);
	assert_true(run_result_find_job(&r, HOST_AGGREGATE, "reader")->job_start_ms == 4999);

	/* stored: headline rows are job '*', each job's rows beside them */
	build(&p, 0, 0, NULL);
	assert_int_equal(store_open(db, 0, &st, &err), 0);
	assert_int_equal(store_suite_add(st, "t", "run", "[]", 1, NULL, &suite, &err), 0);
	assert_int_equal(store_run_begin(st, suite, &p.runs[0], &run, &err), 0);
	assert_int_equal(store_run_finish(st, run, RUN_DONE, NULL, &r, &err), 0);
	assert_int_equal(store_read_results(st, run, HOST_AGGREGATE, &v, &n, &err), 0);
	assert_int_equal(n, 3); /* read, write, total */
	for (size_t i = 0; i < n; i++)
		assert_string_equal(v[i].job, "*");
	assert_int_equal(v[2].ios, 700);
	store_results_free(v, n);
	assert_int_equal(store_read_job_results(st, run, HOST_AGGREGATE, &v, &n, &err), 0);
	assert_int_equal(n, 4); /* reader: read, total; writer: write, total */
	assert_string_equal(v[0].job, "reader");
	assert_int_equal(v[0].ddir, DDIR_READ);
	assert_int_equal(v[0].ios, 300);
	assert_true(v[0].job_start_ms == 4999);
	assert_int_equal(store_read_percentile(st, v[0].id, 50, &p50, &err), 0);
	assert_true(p50 == 3000);
	assert_string_equal(v[2].job, "writer");
	assert_int_equal(v[2].ios, 400);
	store_results_free(v, n);
	assert_int_equal(store_read_job_results(st, run, NULL, &v, &n, &err), 0);
	assert_int_equal(n, 12); /* 2 jobs x 2 directions x (h1, h2, all) */
	store_results_free(v, n);
	store_close(st);
	plan_release(&p);
	run_result_release(&r);
	unlink(db);
	free(db);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_plan_together),
		cmocka_unit_test(test_plan_target_quick),
		cmocka_unit_test(test_identity_and_json),
		cmocka_unit_test(test_aggregate_and_store),
	};
	return cmocka_run_group_tests(tests, tu_dir_setup, tu_dir_teardown);
}
